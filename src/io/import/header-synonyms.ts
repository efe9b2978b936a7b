// The headers of the exports users bring, and the system field each means, by normalised name (lower case, no
// spaces, "_" or "-"). A synonym applies only when no field has the column's own name.
//   LinkedIn Connections.csv: First Name, Last Name, URL, Email Address, Company, Position, Connected On
//   Apollo: Title, Company Name for Emails, Person Linkedin Url, Corporate Phone, Mobile Phone, Website, Secondary Email
//   HubSpot: Email, Phone Number, Company Name, Job Title, Website URL, Country/Region, State/Region
//   Salesforce: Account Name, Title, Phone, Mobile, Mailing City, Mailing State/Province, Mailing Country, LinkedIn URL
//   Google Contacts: Given Name, Family Name, E-mail 1 - Value, Phone 1 - Value, Organization 1 - Name / Title
//   Outlook: E-mail Address, E-mail 2 Address, Business Phone, Mobile Phone, Business City, Web Page
//   Excel and hand-made sheets: email_address, e-mail, mail, firstname, surname, organisation, phone_number

const synonyms: Record<string, string[]> = {
  Email: ['emailaddress', 'workemail', 'businessemail', 'e-mail', 'email1value', 'email1', 'mail', 'emailid'],
  'First Name': ['firstname', 'givenname', 'first', 'forename'],
  'Last Name': ['lastname', 'familyname', 'surname', 'last'],
  Company: ['companyname', 'organization', 'organisation', 'accountname', 'organization1name', 'companynameforemails'],
  'Job Title': ['title', 'position', 'jobtitle', 'organization1title', 'role'],
  'Phone Number': ['phone', 'corporatephone', 'businessphone', 'phone1value', 'mobilephone', 'mobile', 'workphone'],
  LinkedIn: ['url', 'linkedinurl', 'profileurl', 'personlinkedinurl', 'linkedinprofile', 'linkedinprofileurl'],
  Website: ['websiteurl', 'webpage', 'companywebsite', 'website'],
  City: ['mailingcity', 'businesscity'],
  State: ['stateregion', 'mailingstateprovince', 'businessstate', 'province'],
  Country: ['countryregion', 'mailingcountry', 'businesscountry', 'businesscountryregion'],
};

/** Headers that hold an email other than the work one: a second candidate for the Email field, never taken alone
 * when another column could be the email. */
const otherEmails = new Set([
  'personalemail',
  'secondaryemail',
  'email2',
  'email2value',
  'email2address',
  'otheremail',
  'homeemail',
  'privateemail',
]);

const fieldBySynonym = new Map(
  Object.entries(synonyms).flatMap(([field, names]) => names.map((name) => [name.replace(/-/g, ''), field])),
);

/** Headers only one tool's export has: a file with one of them is that tool's export, whose many other columns
 * (Apollo's "Email Open", HubSpot's "Lifecycle Stage") are set aside with a note instead of stopping the import. */
const exportSignatures: Array<[tool: string, headers: string[]]> = [
  ['LinkedIn', ['connectedon']],
  ['Google Contacts', ['email1value', 'givenname', 'organization1name']],
  ['Outlook', ['emaildisplayname', 'email2address', 'businessstreet']],
  ['Apollo', ['apollocontactid', 'companynameforemails', 'personlinkedinurl']],
  ['HubSpot', ['recordid', 'lifecyclestage', 'contactowner']],
  ['Salesforce', ['mailingcity', 'mailingcountry', 'accountname', 'contactid']],
];

/** The tool whose export this header row is, if it is one. */
export function recogniseExport(normalisedHeaders: string[]): string | undefined {
  const present = new Set(normalisedHeaders);
  return exportSignatures.find(([, headers]) => headers.some((h) => present.has(h)))?.[0];
}

/** The field a well-known export header means, if any. */
export function synonymField(normalisedHeader: string): string | undefined {
  return fieldBySynonym.get(normalisedHeader) ?? (otherEmails.has(normalisedHeader) ? 'Email' : undefined);
}

/** A header that could hold the prospect's email: the field's own name, a synonym, or another email. */
export function couldBeEmail(normalisedHeader: string): boolean {
  return normalisedHeader === 'email' || synonymField(normalisedHeader) === 'Email';
}
