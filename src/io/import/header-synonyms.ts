// The headers of the exports users bring, and the system field each means. A synonym applies only when no field has
// the column's own name. Names are compared by their letters and digits ("E-mail 1 - Value" is "email1value").
//   LinkedIn Connections.csv: First Name, Last Name, URL, Email Address, Company, Position, Connected On
//   Apollo: Title, Company Name for Emails, Work Direct Phone, Mobile Phone, First Phone, Corporate Phone, Other Phone,
//     Home Phone, Person Linkedin Url, Secondary Email
//   HubSpot: Record ID, Email, Phone Number, Company Name, Job Title, Website URL, State/Region, Country/Region
//   Salesforce: Title, Account Name, Phone, Mobile, Mailing City, Mailing State/Province, Mailing Country
//   Google Contacts: Given Name / First Name, Family Name, E-mail 1 - Value, Phone 1 - Value, Organization (1) - Name
//   Outlook: E-mail Address, E-mail 2 Address, Business Phone, Mobile Phone, Business City, Web Page
//   Mailchimp: Email Address, First Name, Last Name, MEMBER_RATING, OPTIN_TIME, LEID, EUID, NOTES
//   Excel and hand-made sheets: email_address, e-mail, mail, firstname, surname, organisation, phone_number

// Several columns of one export can mean one field (Apollo has six phones, mostly empty but one): each row takes the
// first of them that is not empty, in the order listed here (best first). For a phone: a direct line, then a mobile,
// then the export's own pick (Apollo's First Phone), then switchboards, and a home number last.
const synonyms: Record<string, string[]> = {
  Email: ['emailaddress', 'workemail', 'businessemail', 'email1value', 'email1', 'mail', 'emailid'],
  'First Name': ['firstname', 'givenname', 'first', 'forename'],
  'Last Name': ['lastname', 'familyname', 'surname', 'last'],
  Company: [
    'companyname',
    'organization',
    'organisation',
    'accountname',
    'organization1name',
    'organizationname',
    'companynameforemails',
  ],
  'Job Title': ['title', 'position', 'jobtitle', 'organization1title', 'organizationtitle', 'role'],
  Department: ['organization1department', 'organizationdepartment', 'departments'],
  'Phone Number': [
    'phone',
    'workdirectphone',
    'directphone',
    'workphone',
    'businessphone',
    'mobilephone',
    'mobile',
    'firstphone',
    'phone1value',
    'corporatephone',
    'otherphone',
    'homephone',
  ],
  LinkedIn: ['url', 'linkedinurl', 'profileurl', 'personlinkedinurl', 'linkedinprofile', 'linkedinprofileurl'],
  Website: ['websiteurl', 'webpage', 'website1value'],
  City: ['mailingcity', 'businesscity'],
  State: ['stateregion', 'mailingstateprovince', 'businessstate', 'province'],
  Country: ['countryregion', 'mailingcountry', 'businesscountry', 'businesscountryregion'],
};

/** Emails beside the work one that could be the prospect's as well: with another email column the user says which
 * (asked on a terminal, else --map). */
const otherEmails = new Set(['personalemail', 'homeemail', 'privateemail']);
/** Emails that say they are not the main one (Google's "E-mail 2 - Value", Outlook's "E-mail 2 Address", Apollo's
 * "Secondary Email"): beside a main email column they are set aside. */
const laterEmail = /^(email[2-9](value|address)?|(secondary|tertiary|other)email)$/;

/** Headers only one tool's export has: a file with one of them is that tool's export, whose many other columns
 * (Apollo's "Email Open", HubSpot's "Lifecycle Stage") are set aside with a note instead of stopping the import. */
const exportSignatures: Array<[tool: string, headers: string[]]> = [
  ['LinkedIn', ['connectedon']],
  ['Google Contacts', ['email1value', 'givenname', 'organization1name']],
  ['Outlook', ['emaildisplayname', 'email2address', 'businessstreet']],
  ['Thunderbird', ['screenname', 'pagernumber', 'webpage1']],
  ['Apollo', ['apollocontactid', 'companynameforemails', 'personlinkedinurl']],
  ['HubSpot', ['recordid', 'lifecyclestage', 'contactowner']],
  ['Salesforce', ['mailingcity', 'mailingcountry', 'accountname', 'contactid']],
  ['Mailchimp', ['memberrating', 'optintime', 'leid', 'euid']],
];

const key = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

const fieldBySynonym = new Map(Object.entries(synonyms).flatMap(([field, names]) => names.map((n) => [n, field])));

/** Where a synonym stands in its field's list: of several columns for one field, the lower rank is tried first. */
export function synonymRank(header: string): number {
  const name = key(header);
  const field = fieldBySynonym.get(name);
  return field ? synonyms[field]!.indexOf(name) : Infinity;
}

/** The field a well-known export header means, if any. */
export function synonymField(header: string): string | undefined {
  const name = key(header);
  return fieldBySynonym.get(name) ?? (otherEmails.has(name) || laterEmail.test(name) ? 'Email' : undefined);
}

/** A header that could be the prospect's email: the field's own name, a synonym, or a personal email (not a second
 * email). */
export function couldBeEmail(header: string): boolean {
  const name = key(header);
  return !laterEmail.test(name) && (name === 'email' || synonymField(name) === 'Email');
}

/** The tool whose export this header row is, if it is one. */
export function recogniseExport(headers: string[]): string | undefined {
  const present = new Set(headers.map(key));
  return exportSignatures.find(([, names]) => names.some((name) => present.has(name)))?.[0];
}
