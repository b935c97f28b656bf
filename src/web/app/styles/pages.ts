/**
 * Mantine's styles for the screens behind sign-in and the public links, loaded with the first of
 * them. Components the first page already styled are in `./first-paint`; the rest follow in the
 * order of Mantine's whole stylesheet, including those the used ones are built on (Select on
 * Combobox and Popover, Modal on ModalBase and Overlay).
 * `scripts/check-mantine-styles.ts` (part of the lint) names any component used without its styles.
 */
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Breadcrumbs.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Fieldset.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Menu.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/NavLink.css';
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/RadioCard.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Skeleton.css';
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Tabs.css';
import '@mantine/dates/styles.css';
